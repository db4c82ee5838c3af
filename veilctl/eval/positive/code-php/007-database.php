<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|172.31.131.108⟧',
            'database' => 'auth',
            'username' => 'billing_rw',
            'password' => '⟦PASSWORD|CncPbFzUS0^8^f^0_tm⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-6e0609781e94c6ffffab1765bf26747e⟧'],
        'slack_bot_token' => ['key' => '⟦SLACK_TOKEN|xoxp-773556948117-841500451992-0663801701273-ed915072acbcd6c6ad2614008f441e26⟧'],
    ],
    'app_key' => '⟦SECRET|base64:pTCOkeBphx8WvuswVcZXKgO8c+N3/cSTSR/yWaJA38w=⟧',
];
