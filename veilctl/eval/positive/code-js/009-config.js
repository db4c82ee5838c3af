const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|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⟧');
const app = express();
const config = {
  serviceJwt: '⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyOTE3NDciLCJpYXQiOjE3MjUyOTE0ODgsImV4cCI6MTcyNTI5NTA4OH0.nJJhdc7UR1nvR8eoQZghxenAfR4nVUKluFSPtOGci8I⟧',
  mongoUri: '⟦CONNECTION_STRING|smtp://apikey:Kestrel47996VIG@mail.litware.com:587⟧',
  jwtSecret: "⟦SECRET|81b08a287e10b8c32f5ac8e7f12ac6103f333ab40cfa1f9d92917efa45fb8543⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://discord.com/api/webhooks/2603173236398825435/ipWynyaBiiN5MwvJRwRA9jGjKYIQh4rwHq_2ylvD4cjSyB2U3iDdAkr3j4CSnB-RlasE⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
