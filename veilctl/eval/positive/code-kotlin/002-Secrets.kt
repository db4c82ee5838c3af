package com.acme.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIzanLMS-BqlPsQBorr6Wc8FOeNpToY6iqcBGxS⟧"
    const val BACKEND_TOKEN = "⟦WEBHOOK_URL|https://chat.litware.com/hooks/blsrpxy2va835hp4t7g765a608⟧"
    val sentryDsn = "https://⟦SECRET|a0a83fac35d99acf6f8a7c6b3314d4e4⟧@o634448.ingest.sentry.io/7138882"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
