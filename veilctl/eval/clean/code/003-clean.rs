let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "a984e1c882b886cecba0d11c282fdd92bad0722d2a1bb0c5bc95456f1cb0bcb7";
