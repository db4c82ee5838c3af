let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "3817e8be31ef35f63c83d4d2f6dcd2368fcd8f6358122446766f75e0f90e5de5";
