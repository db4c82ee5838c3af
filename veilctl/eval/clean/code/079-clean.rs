let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "ad59b33ce81bd93e372be6f3c3bf54bd142814add1122753346c1fa376984611";
