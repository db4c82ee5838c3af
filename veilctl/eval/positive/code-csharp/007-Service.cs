using System.Net.Http.Headers;

namespace Tyrell.Integrations;

public class CrmService
{
    private const string ApiKey = "⟦PASSWORD|Orange1329!⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|crm.corp⟧;Database=app_prod;User Id=rails;Password=⟦PASSWORD|Orange1329!⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://chat.googleapis.com/v1/spaces/AAAAiNzej01/messages?key=AIzatH8-N3SVEO61bb4VVOrJkU2LW2Dk94IOTLf&token=BN8Z5hYA4w2LujOKPtooM5UdSvYRBHFnDvt5DoRN2Ef%3D⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦API_KEY|r8_jltgedSeUhGEELQIvd3zctzpU1QM1q7GJj1he⟧");
        return client;
    }
}
