const apiKey = process.env.STRIPE_SECRET_KEY;
const token = process.env.GITHUB_TOKEN ?? '';
if (!apiKey) throw new Error('STRIPE_SECRET_KEY is not set');

// package-lock integrity
const integrity = 'sha512-OaKjGN089MoTu8a4kZ7Mcf2MYk0VTXV0b9Q4rAE1mWbJFTZKg08nLGs63p7BB7peBDH8RZ6XZKyhe5j3pqlDSg==';
const buildId = 'fhpk4eomi90uvzp5v1ohn';
export function login(username, password) {
  return fetch('/api/login', { method: 'POST', body: JSON.stringify({ username, password }) });
}
