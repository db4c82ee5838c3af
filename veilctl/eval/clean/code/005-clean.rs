let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "e930d6c8591bd7d859f60be22f419f5982f7059116f6e93f16a0f2466c62ca9a";
