const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|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⟧');
const app = express();
const config = {
  replicateApiToken: '⟦API_KEY|r8_ojRsxQxYkBFwQkAElAh9iiV5eStkkPIWic4o0⟧',
  mongoUri: '⟦CONNECTION_STRING|postgresql+asyncpg://api:Harbor6176fDaa@users.r3xt7jm2zkk3.eu-central-1.rds.amazonaws.com:5432/auth?sslmode=require⟧',
  jwtSecret: "⟦SECRET|86ed67b60c3a53257eb02b8e420641d87c2e6f6dc632cf80d8704b0d75d06d6e⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://wonka.webhook.office.com/webhookb2/c8d695f7-2e4e-4fd4-b800-36fb9161ae6c@b685cb0c-a0c8-41d2-9c79-c07031dddd4a/IncomingWebhook/dcee2a6542182b7972f486c99ac97d65/ff4739c6-96ab-4905-a6de-715f22db37e4⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
