use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦CONNECTION_STRING|postgresql://svc_orders:h5qZnDl5y56i@crm.036zlggoqzul.us-east-1.rds.amazonaws.com/warehouse⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|postgresql://svc_orders:h5qZnDl5y56i@crm.036zlggoqzul.us-east-1.rds.amazonaws.com/warehouse⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
