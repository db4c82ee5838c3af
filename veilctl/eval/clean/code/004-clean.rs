let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "363f73debe2c5109990da69a1de7f8d957e38bfa08548d0e275ed01b90061aef";
