let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "bda4a7d89d89d278479c9f0f4e827d19ee582e70bb2f9ecd34bd1faef9e47a1f";
