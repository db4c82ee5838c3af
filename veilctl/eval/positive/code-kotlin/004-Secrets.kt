package com.tyrell.android

object Secrets {
    const val MAPS_API_KEY = "⟦GOOGLE_API_KEY|AIzau8rw9m6fBRbRXEeOvdzzs05fZYPWcx7yLoL⟧"
    const val BACKEND_TOKEN = "⟦CONNECTION_STRING|redis://default:Velvet9540dEi5@inventory.b1w7v8vgubcf.us-east-1.rds.amazonaws.com:6379/0⟧"
    val sentryDsn = "https://⟦SECRET|f37bb8fa7eb073182922c93bdeb5bf97⟧@o740853.ingest.sentry.io/3876195"
}

fun client(): OkHttpClient = OkHttpClient.Builder()
    .addInterceptor { chain ->
        chain.proceed(chain.request().newBuilder()
            .header("Authorization", "Bearer ${Secrets.BACKEND_TOKEN}")
            .build())
    }.build()
