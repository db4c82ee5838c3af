@echo off
REM build settings for search-indexer
set SLACK_BOT_TOKEN=⟦SLACK_TOKEN|xoxb-783611112538-1790908618426-vSQdcs9rOJ0KMIbZ6tfVT00S⟧
set DB_PASSWORD=⟦PASSWORD|Maple420!⟧
set "AZURE_CLIENT_SECRET=⟦CLOUD_CREDENTIAL|SBd0Q~rjNEe0Mbs9zsPF5qVz3tQ7vdysasqJW4Vy⟧"
call mvn -B deploy -DskipTests
