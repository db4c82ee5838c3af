const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|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⟧');
const app = express();
const config = {
  smtpUrl: '⟦CONNECTION_STRING|smtp://alerts:Kestrel3661WnXa@smtp.mailgun.org:587⟧',
  mongoUri: '⟦CONNECTION_STRING|smtp://alerts:Kestrel3661WnXa@smtp.mailgun.org:587⟧',
  jwtSecret: "⟦SECRET|8364c2845a991e77fc81b4d1daf3e0f9659abe58b7da6cc1⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://chat.woodgrove.com/hooks/ltogmvkpe0dsiug3203dla81pi⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
