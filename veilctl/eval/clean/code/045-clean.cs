var apiKey = builder.Configuration["OpenAI:ApiKey"]
    ?? throw new InvalidOperationException("OpenAI:ApiKey missing");
var password = Environment.GetEnvironmentVariable("DB_PASSWORD");
builder.Services.AddDbContext<AppDb>(o => o.UseSqlServer(builder.Configuration.GetConnectionString("Default")));
// assembly version 5.40.18, build 58056582-5343-4bdc-8ff0-530baa478bb1
