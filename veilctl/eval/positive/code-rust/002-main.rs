use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦API_KEY|sk-24063ab9aea4c8186601831ade0d08eb⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|rediss://grafana:ctP6uyMqH9kr@db.globex.example.com:6380/1⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦API_KEY|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⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
