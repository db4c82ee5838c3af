let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "892dfed42f786ac135c18001c862482cbcf73dc0a3f3abcb70e1038d696b6a51";
