package com.acme.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIzaK-YkySQgM1MHS3ynE5gH2Ifxo8qqqr--xHs⟧"
    const val BACKEND_TOKEN = "⟦CLOUD_CREDENTIAL|QsAUkzBMzlxie1uZAfzIZU0y1WiDHw1QFcB52Pi81vN⟧"
    val sentryDsn = "https://⟦SECRET|4617a921184fa7c0f82250dbefb96504⟧@o599771.ingest.sentry.io/4188975"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
