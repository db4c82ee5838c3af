let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "13a05d73ab231041b4a73b51d50b146b65169d60c6fa4c787a989c26571d4c00";
