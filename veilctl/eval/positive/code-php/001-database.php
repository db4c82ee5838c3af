<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|172.16.60.47⟧',
            'database' => 'inventory',
            'username' => 'grafana',
            'password' => '⟦PASSWORD|Rocket-banana-53⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-2cf13176ad1ff59877433c69c2df2901⟧'],
        'together_api_key' => ['key' => '⟦API_KEY|4e301ab84aae32f85a683eb05a2540ce03d31517193ac82d532c166d307ceb96⟧'],
    ],
    'app_key' => '⟦SECRET|base64:BQJH+yRwcQJDfighSRQ0FKoQ3Am9Bu/fXiouME55IXs=⟧',
];
