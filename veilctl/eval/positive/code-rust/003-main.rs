use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦PASSWORD|2sWkl5mSOmBHLMNHLNT⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|rediss://django:JYeCK7B~Jw2O4Dhj3vby0w@crm.s6td3iykp50s.us-east-1.rds.amazonaws.com:6380/1⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
