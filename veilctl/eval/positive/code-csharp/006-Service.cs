using System.Net.Http.Headers;

namespace Acme.Integrations;

public class CrmService
{
    private const string ApiKey = "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3MDExODgiLCJpYXQiOjE3MTA1NzU2NTksImV4cCI6MTcxMDU3OTI1OSwic2NvcGUiOiJhcGkifQ.OOLMAvmPR-4WPrLLkTJ65grxv9zymgZsx75bK6dLq_e⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|kafka-0.corp.tyrell.com⟧;Database=crm;User Id=rails;Password=⟦PASSWORD|4lZ.BhRv1tjev1b.y~hV⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://soylent.webhook.office.com/webhookb2/cad2c5e3-e42c-4d05-b1f6-77105c591785@93f2075e-7900-4f8b-94be-7d6cf4bd3aa1/IncomingWebhook/6ceabcfaa91a6bbb4e5952331bb406af/8748cd6b-03d6-4947-adfb-07e46b7e4479⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦CLOUD_CREDENTIAL|doo_v1_69bbe138c39bb50e8d7782af9a31ab2347a5bc53cdff8409f609440b4f2ef43b⟧");
        return client;
    }
}
