<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|192.168.161.140⟧',
            'database' => 'orders',
            'username' => 'app',
            'password' => '⟦PASSWORD|Thunder626^⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-f0ebb9b4a2374b74ce87d8faf820527a⟧'],
        'slack_webhook_url' => ['key' => '⟦WEBHOOK_URL|https://hooks.slack.com/services/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⟧'],
    ],
    'app_key' => '⟦SECRET|base64:TDJQCAiMpSLpu3i3YOH/FjnUyD8/hBxnjCckrWGHQco=⟧',
];
