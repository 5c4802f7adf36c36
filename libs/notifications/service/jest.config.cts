module.exports = {
  displayName: 'notifications-service',
  preset: '../../../jest.preset.js',
  coverageDirectory: '../../../coverage/libs/notifications/service',
};
