const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|sk_test_F4vx8Bq7F71p4HQGVKAGtjQ3⟧');
const app = express();
const config = {
  mysqlRootPassword: '⟦PASSWORD|Orange991!⟧',
  mongoUri: '⟦CONNECTION_STRING|ftp://admin:Harbor1809K6vl@kibana.hooli.local:21/incoming/⟧',
  jwtSecret: "⟦SECRET|b9b538096bb96242b2cf231204888c6af0824ce6⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://chat.googleapis.com/v1/spaces/AAAATOU3iKc/messages?key=AIzahbhotxgezpvL_z5HOpCjcH0Pygi87a77flp&token=Ucy_VGNClsmudDJwAESi1FOtXB9_sxq6WR5i73Rx6Ag%3D⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
