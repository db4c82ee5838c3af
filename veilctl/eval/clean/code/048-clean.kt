val apiKey: String = BuildConfig.MAPS_API_KEY
val password = requireNotNull(System.getenv("KEYSTORE_PASSWORD"))
val versionCode = 48743
