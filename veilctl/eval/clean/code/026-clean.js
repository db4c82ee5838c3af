const apiKey = process.env.STRIPE_SECRET_KEY;
const token = process.env.GITHUB_TOKEN ?? '';
if (!apiKey) throw new Error('STRIPE_SECRET_KEY is not set');

// package-lock integrity
const integrity = 'sha512-U4JipjmfaYmhjwkKJtQFNuLkmxyCD61jFilW3ZA+jRe2/KuUBdoDq37Q1nAXuAAkj9oRqMZEcGrd1U21oxQBVA==';
const buildId = 'q42dfuo7cpyeguwg5l3lo';
export function login(username, password) {
  return fetch('/api/login', { method: 'POST', body: JSON.stringify({ username, password }) });
}
