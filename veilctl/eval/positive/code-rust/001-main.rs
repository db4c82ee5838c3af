use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIzODE4NTYiLCJpYXQiOjE3MTc3MDM3NjYsImV4cCI6MTcxNzcwNzM2Nn0.LVO6AnS73fkV9ASbvq3tqG09MAHopcrJtwFKQ9KH5Cg⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|mongodb://app:KVjiL59e7CprM6apha@ldap.local:27017/warehouse⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦PASSWORD|F_Dk3VSg7igPv1ujonc0c⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
