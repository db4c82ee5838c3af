<?php

return [
    'default' => env('DB_CONNECTION', 'mysql'),
    'connections' => [
        'mysql' => [
            'driver' => 'mysql',
            'host' => '⟦PRIVATE_IP|172.20.5.171⟧',
            'database' => 'payments',
            'username' => 'admin',
            'password' => '⟦PASSWORD|Coffee1236*⟧',
        ],
    ],
    'services' => [
        'mailgun' => ['secret' => '⟦SERVICE_TOKEN|key-ac1e0d005ab064c9edc480ae0640799b⟧'],
        'supabase_service_role_key' => ['key' => '⟦JWT|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2OTYyMDQiLCJpYXQiOjE3NTcxNzI1NjUsImV4cCI6MTc1NzE3NjE2NX0.RcCK4Z8chzsxxr8ULnSg6ytqdCuZ0l_nKTxtQpVxoAU⟧'],
    ],
    'app_key' => '⟦SECRET|base64:fAdRlTLRwrD1vqJxyDb4zIY5xR9MvMg4rC/knyIP1ts=⟧',
];
