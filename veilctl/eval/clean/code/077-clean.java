public final class Credentials {
    private final String apiKey;
    private final char[] password;

    public Credentials(String apiKey, char[] password) {
        this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
        this.password = password;
    }

    public static Credentials fromEnv() {
        return new Credentials(System.getenv("API_KEY"), System.getenv("DB_PASSWORD").toCharArray());
    }
    // serialVersionUID = 319531885574607945L
}
