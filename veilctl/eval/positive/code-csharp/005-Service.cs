using System.Net.Http.Headers;

namespace Fabrikam.Integrations;

public class BillingService
{
    private const string ApiKey = "⟦PASSWORD|UtQTRHoDC.oX81n⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|pg-primary.home.arpa⟧;Database=payments;User Id=app;Password=⟦PASSWORD|UtQTRHoDC.oX81n⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://prod-32.westeurope.logic.azure.com:443/workflows/3e048382b4c1f80215e499b61b7012f7/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=rmwCwiyb16tD4g5Ck0Xds0koM22jx33qZYfmugR0aF3⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦SECRET|rhsZEZI4+QQj+aXgtHF2hi6vpf1jAEU0+7cIzjSK8Lg=⟧");
        return client;
    }
}
