package com.acme.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIzaqUy3bGJZLb5GdrYUhzsUnHNK0f8c4RTgGSk⟧"
    const val BACKEND_TOKEN = "⟦CONNECTION_STRING|mongodb://postgres:Velvet1552RtIj@app_prod.yorfrargk8bc.eu-central-1.rds.amazonaws.com:27017/users⟧"
    val sentryDsn = "https://⟦SECRET|5b65221e035f8b2e12f5d1c077bb8aa2⟧@o955003.ingest.sentry.io/9687355"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
