@echo off
REM build settings for webhooks-relay
set IC_API_KEY=⟦CLOUD_CREDENTIAL|Jeltmyjs_0G8J_1GGuEnEEWvC6uiNcHUjXRzadL4zEDq⟧
set DB_PASSWORD=⟦PASSWORD|Velvet.rocket-36⟧
set "GITHUB_PAT=⟦GITHUB_TOKEN|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⟧"
call mvn -B deploy -DskipTests
