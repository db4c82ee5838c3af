using System.Net.Http.Headers;

namespace Wonka.Integrations;

public class LlmService
{
    private const string ApiKey = "⟦PASSWORD|Banana53!!⟧";
    private readonly string _connectionString = "Server=⟦INTERNAL_HOST|users.default.svc.cluster.local⟧;Database=crm;User Id=admin;Password=⟦PASSWORD|Banana53!!⟧;";
    private static readonly string WebhookUrl = @"⟦WEBHOOK_URL|https://prod-62.westeurope.logic.azure.com:443/workflows/ad541b6dfe05d8add67e192e4d123c62/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=FeAT0Lpm0Z-zJr9MAzTboX60e3ZZWtixcNz88j36HEG⟧";

    public HttpClient Create()
    {
        var client = new HttpClient();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", ApiKey);
        client.DefaultRequestHeaders.Add("X-Api-Secret", "⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxODIxMDMiLCJpYXQiOjE3NTI5MTMzMTQsImV4cCI6MTc1MjkxNjkxNH0.8ovnazK8araazuTosppHXcHi0Fh25mSzIJ-trtLXfNJ⟧");
        return client;
    }
}
