<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|172.16.134.142⟧',
            'database' => 'billing',
            'username' => 'grafana',
            'password' => '⟦PASSWORD|Summer.banana-99⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-7e9cff9461e9dd69af930ee0cf5839e6⟧'],
        'alibaba_cloud_access_key_id' => ['key' => '⟦CLOUD_CREDENTIAL|LTAIbmYGD24NQGdYBbKxP9uf⟧'],
    ],
    'app_key' => '⟦SECRET|base64:iPOAKGZrN5tNnVx45DvqosqxomapN1QG5ABaDIYLdmU=⟧',
];
