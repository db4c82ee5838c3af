const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|sk_test_xlDfzdKvTdXJvmjdGwzvSfj0⟧');
const app = express();
const config = {
  springDatasourcePassword: '⟦PASSWORD|Monkey1177!!⟧',
  mongoUri: '⟦CONNECTION_STRING|smtp://alerts:K.uMy8LTwPMQx5EHyh@email-smtp.eu-west-1.amazonaws.com:587⟧',
  jwtSecret: "⟦SECRET|a7818b689410d3749140978acb318c4f85b8cdaadb1e68e8daf8be2ce6dc54c1⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
