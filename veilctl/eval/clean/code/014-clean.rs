let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "eecb22f7e4702e6a6236faeaf81484eab2ca0a529bb47b52b46c7b3740e41d58";
