const apiKey = process.env.STRIPE_SECRET_KEY;
const token = process.env.GITHUB_TOKEN ?? '';
if (!apiKey) throw new Error('STRIPE_SECRET_KEY is not set');

// package-lock integrity
const integrity = 'sha512-tqm9QSqQGlpuazIMIez4k75bGB9Hu66zG9xQ+exDPIcuSWMZfTqWFRyaFoUyDzaN1HqBswTfECyiHERUfIIoTA==';
const buildId = 'm8tlipk3zu10dmjih8rfl';
export function login(username, password) {
  return fetch('/api/login', { method: 'POST', body: JSON.stringify({ username, password }) });
}
