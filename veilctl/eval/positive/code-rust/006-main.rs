use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦AWS_SECRET_KEY|peDwZaTNofKQHYvVKdke6eKYr1BZ7VztyxT+ja4h⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|postgresql://admin:nwHjHuGWtobR@users.i2lh8665wr55.us-east-1.rds.amazonaws.com/payments⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkpyWlBkN2F1dFR0UiJ9.eyJzdWIiOiI3NjQ5MDEiLCJpYXQiOjE3MDcxMDY5MjAsImV4cCI6MTcwNzExMDUyMH0.tXFMTECPbB2hiWfIyo7UGuxuS57wf8OLldR1_eZXbRQ⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
