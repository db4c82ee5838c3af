<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|172.30.24.225⟧',
            'database' => 'billing',
            'username' => 'grafana',
            'password' => '⟦PASSWORD|Sunset1845!⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-87ab07b67b2ff1959eed56e07bedd120⟧'],
        'voyage_api_key' => ['key' => '⟦API_KEY|pa-oRdYgei7h5YVa43HKCf9K7Od-iFVaQQK8P8r87VVSWh⟧'],
    ],
    'app_key' => '⟦SECRET|base64:3Vy9e77hLvfk/RBjHXwO5xS0T2KfNkAdhHS4KBzuZN0=⟧',
];
