using System.Net.Http.Headers;

namespace Stark.Integrations;

public class CrmService
{
    private const string ApiKey = "⟦CLOUD_CREDENTIAL|UiPOatmdN02UUkzQ3I5VzE4I6RJ7b8CB2uIqpOuocgOMRW5jqHBDdIzYWV6IUfRr⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|notifications.platform.svc.cluster.local⟧;Database=auth;User Id=billing_rw;Password=⟦PASSWORD|Rocket1598.⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://prod-74.westeurope.logic.azure.com:443/workflows/a9fde32b40d84422db8e9402728c4701/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=Br4JpVZYJfpgS2HbxOSFXmC659U2plrrYFFWbkwuMGz⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦API_KEY|xai-6XKmyJoddMKmRkU1tUzyPovgTj49Q0yJWiBCx7pyhNSspcET7i71TKhMHFmRLG6DZRI22VPVck32vpd2⟧");
        return client;
    }
}
