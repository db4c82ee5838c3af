var apiKey = builder.Configuration["OpenAI:ApiKey"]
    ?? throw new InvalidOperationException("OpenAI:ApiKey missing");
var password = Environment.GetEnvironmentVariable("DB_PASSWORD");
builder.Services.AddDbContext<AppDb>(o => o.UseSqlServer(builder.Configuration.GetConnectionString("Default")));
// assembly version 7.24.28, build b6fd72de-8160-4ca6-b7ce-61f828d35a9e
