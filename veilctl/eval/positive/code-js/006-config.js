const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|sk_live_AkKlZlZ427sguizAO8BNmOiI⟧');
const app = express();
const config = {
  mongoUri: '⟦CONNECTION_STRING|mongodb://svc_orders:oAH9mXIV9m@app_prod.e30hxtrcbppd.eu-west-1.rds.amazonaws.com:27017/app_prod⟧',
  mongoUri: '⟦CONNECTION_STRING|mongodb://svc_orders:oAH9mXIV9m@app_prod.e30hxtrcbppd.eu-west-1.rds.amazonaws.com:27017/app_prod⟧',
  jwtSecret: "⟦SECRET|39692cfbf61545239d012b8869bc24da⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://chat.acme.com/hooks/s27c3r8iodqbccdc0wphcmbpq5⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
