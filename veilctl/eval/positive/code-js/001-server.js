const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|sk_test_qvCz4AqAI5T219RzaBMU2fpFoVurQEDvGKfHBYNOaVvi5R8lkWCN8szgnaAKSM80PFWLXZAplLtb5eJYIO5KU5VUgM5sGGOMZF3⟧');
const app = express();
const config = {
  tgToken: '⟦SERVICE_TOKEN|6947885383:AAKjdmaR1uJlQCdQ2bhLIRTfHPDLb6qDmgq⟧',
  mongoUri: '⟦CONNECTION_STRING|mongodb://rails:fQ8qljo1eZj6XJaLD@analytics.wsp4z0a519xh.eu-west-1.rds.amazonaws.com/billing⟧',
  jwtSecret: "⟦SECRET|266bd87f37504eac7d7d2c9237588325fc683f194b4ea0301f5b8910153ab3d2⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://umbrella.webhook.office.com/webhookb2/98184ae2-c2fa-4861-90e1-02174ddab375@5a213bb3-eb18-4c8e-bb2d-10c90337c93b/IncomingWebhook/423e24ba1ad000d7e7c253df64175bdb/550b1687-4079-4628-9c32-dd29f5544298⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
