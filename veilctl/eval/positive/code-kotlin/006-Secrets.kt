package com.contoso.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIza9YInpiiywE6oKH_P0gLk30fc51TL3Iy6kYS⟧"
    const val BACKEND_TOKEN = "⟦CLOUD_CREDENTIAL|IuU6Q~IMuSZ6stxrAr0zYCwOJlNCl_smBEJjP2Cq⟧"
    val sentryDsn = "https://⟦SECRET|fcfdde7f9342dc6da13a0f904f0134b2⟧@o466811.ingest.sentry.io/8951576"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
