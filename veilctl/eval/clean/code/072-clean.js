const apiKey = process.env.STRIPE_SECRET_KEY;
const token = process.env.GITHUB_TOKEN ?? '';
if (!apiKey) throw new Error('STRIPE_SECRET_KEY is not set');

// package-lock integrity
const integrity = 'sha512-aZjWl+g2gvHT5lwHqkPHG4SVBdl+fYAEuybVqwJgGwkuI+8thwV/kEMMoIOT7rehLeefjGufSHAAmGFbYJZDDg==';
const buildId = '12d1oumhlehaq2fj9frck';
export function login(username, password) {
  return fetch('/api/login', { method: 'POST', body: JSON.stringify({ username, password }) });
}
