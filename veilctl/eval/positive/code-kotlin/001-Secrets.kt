package com.tyrell.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIzaZ-PoOCU4NB1U-QTdFX7MPQeXGEOiCyeum4m⟧"
    const val BACKEND_TOKEN = "⟦TWILIO_KEY|SK0e6c1edc35d7a83f2cb407a949394e5c⟧"
    val sentryDsn = "https://⟦SECRET|5f2b56f6f1ffe196eae2584b11eadded⟧@o809202.ingest.sentry.io/4561821"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
