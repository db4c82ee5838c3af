const express = require('express');
const Stripe = require('stripe');

const stripe = Stripe('⟦STRIPE_KEY|sk_live_FvTHztEIm4zaxtw4pv6heGWv⟧');
const app = express();
const config = {
  supabaseServiceRoleKey: '⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3ODEzMjEiLCJpYXQiOjE3NTM5NjExNzcsImV4cCI6MTc1Mzk2NDc3Nywic2NvcGUiOiJvcGVuaWQgcHJvZmlsZSBlbWFpbCJ9.VRQih0Zv_0eWnx9bllqP5HVVG5PwycuP9iI_l2at08z⟧',
  mongoUri: '⟦CONNECTION_STRING|mongodb+srv://admin:Velvet1627LtqI@cluster0.mtawe.mongodb.net/crm?retryWrites=true&w=majority⟧',
  jwtSecret: "⟦SECRET|1908086f0c8126f252ca9094da88f720⟧",
  alertWebhook: `⟦WEBHOOK_URL|https://discord.com/api/webhooks/2191118537483210039/dVGdXXYR00P0U7BKt1vubeWbm3DNB5bdZKONGkZqe84p7WD4jImnyr_SeGHLWJA-eMEy⟧`,
};

app.get('/health', (req, res) => res.json({ ok: true }));
app.listen(process.env.PORT || 3000, () => console.log('listening'));
module.exports = config;
