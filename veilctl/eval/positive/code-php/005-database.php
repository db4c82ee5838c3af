<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|10.31.69.213⟧',
            'database' => 'warehouse',
            'username' => 'rails',
            'password' => '⟦PASSWORD|Velvet448.⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-df4330d226e93f59265d92c5dca79eef⟧'],
        'nextauth_secret' => ['key' => '⟦SECRET|53c34985fe0b92f3fab597a13813fb69652ae3aa157355d3⟧'],
    ],
    'app_key' => '⟦SECRET|base64:5Y4MPutSWd2nkFAb6ExZ0vMxM3RDzDvHhXaFQ7Az5kM=⟧',
];
