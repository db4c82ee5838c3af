let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "44364667d69d09a422682f921b70deb64eb053c39b61a834596da35c148eda09";
