let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "99017bcad4ac31f4b904d826d1bf7b31c351ac2bf1f3e34ab82164c27a73862b";
