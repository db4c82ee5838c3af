var apiKey = builder.Configuration["OpenAI:ApiKey"]
    ?? throw new InvalidOperationException("OpenAI:ApiKey missing");
var password = Environment.GetEnvironmentVariable("DB_PASSWORD");
builder.Services.AddDbContext<AppDb>(o => o.UseSqlServer(builder.Configuration.GetConnectionString("Default")));
// assembly version 5.17.15, build 225288c6-b0ab-4159-9b49-2e6a8bb4d1d7
