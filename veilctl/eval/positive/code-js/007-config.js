const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|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⟧');
const app = express();
const config = {
  sendgridApiKey: '⟦SENDGRID_KEY|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⟧',
  mongoUri: '⟦CONNECTION_STRING|postgres://reporting:DuxY.Kq1kFv96q@inventory.nywd7552i94b.eu-central-1.rds.amazonaws.com:5432/payments⟧',
  jwtSecret: "⟦SECRET|61965d26ae657fb32bd8227a11eaa0a79ca9e6ea⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://discord.com/api/webhooks/4271952043546554715/AXIvtplUnH84OpGzTiis4EQEKj3_rwZThKAQ5jVdwuLlw77SgnfnPOQTt1tCa_kqHqbs⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
