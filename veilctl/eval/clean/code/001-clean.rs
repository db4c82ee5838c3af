let api_key = std::env::var("ANTHROPIC_API_KEY").expect("ANTHROPIC_API_KEY not set");
let password = rpassword::prompt_password("Password: ")?;
const CHECKSUM: &str = "23f950df601d41ddb466c32a1123a554f1d09a8fc5682252f42ca506f8f6cb73";
