let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "88f10971933e41f6bd3aba3bec340e898830ad990138f4781be0764ce81139e8";
