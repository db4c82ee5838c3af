use reqwest::header::{HeaderMap, AUTHORIZATION};

const API_KEY: &str = "⟦PASSWORD|ycm9yOXByTqyYey85Q⟧";
static DATABASE_URL: &str = "⟦CONNECTION_STRING|mssql://grafana:c6HyuwOvcCNmxT3y@db.wayne.example.com/app_prod⟧";

fn headers() -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(AUTHORIZATION, format!("Bearer {API_KEY}").parse().unwrap());
    h
}

fn main() {
    let secret = "⟦STRIPE_KEY|rk_live_xVsXsQDQ5EmrCpWLPvifeV4p⟧";
    println!("{} {}", DATABASE_URL.len(), secret.len());
}
